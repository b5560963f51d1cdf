import { useId, useState } from "react";
import { Field } from "~/components/ui/field";
import { PROFILE_FIELDS, type ProfileFieldErrors } from "~/modules/scent/scent-profile";
import type { ScentProfile } from "~/modules/scent/scent.logic";
import {
  AUDIENCES,
  AUDIENCE_TEXT,
  FAMILY_TEXT,
  INTENSITIES,
  INTENSITY_TEXT,
  NOTE_MAX_LENGTH,
  NOTE_VOCABULARY,
  OCCASIONS,
  OCCASION_TEXT,
  SCENT_FAMILIES,
  SEASONS,
  splitNotes,
} from "~/modules/scent/scent.vocabulary";

/**
 * The admin product form's scent profile (issue 22): family, the notes pyramid, intensity, when, seasons and who for.
 * Plain fields, so it works without JavaScript; the server checks every value again (scent-profile.ts
 * parseProfileFields, through product-form.server.ts).
 */
export function ScentProfileFields({ profile, errors }: { profile: ScentProfile; errors: ProfileFieldErrors }) {
  return (
    <section aria-labelledby="product-scent" className="space-y-5 border border-line bg-white p-4 sm:p-6">
      <h2 id="product-scent" className="font-display text-2xl text-ink">
        Scent profile
      </h2>
      <p className="text-xs text-muted">
        Shown on the product page as its notes pyramid, and used by the scent finder, "If you love…, try…" and the shop's family and note filters.
      </p>
      <Field label="Family" error={errors.family}>
        {(p) => (
          <select {...p} name={PROFILE_FIELDS.family} defaultValue={profile.family ?? ""}>
            <option value="">Not set</option>
            {SCENT_FAMILIES.map((f) => (
              <option key={f} value={f}>
                {FAMILY_TEXT[f].label}: {FAMILY_TEXT[f].everyday}
              </option>
            ))}
          </select>
        )}
      </Field>
      <NotesField label="Top notes" name={PROFILE_FIELDS.top} defaultValue={profile.top.join(", ")} error={errors.top} hint="The first minutes. Separate notes with commas: bergamot, pink pepper" />
      <NotesField label="Heart notes" name={PROFILE_FIELDS.heart} defaultValue={profile.heart.join(", ")} error={errors.heart} hint="The first hours." />
      <NotesField label="Base notes" name={PROFILE_FIELDS.base} defaultValue={profile.base.join(", ")} error={errors.base} hint="What lingers." />
      <div className="grid gap-5 sm:grid-cols-3">
        <Field label="Intensity" error={errors.intensity}>
          {(p) => (
            <select {...p} name={PROFILE_FIELDS.intensity} defaultValue={profile.intensity ?? ""}>
              <option value="">Not set</option>
              {INTENSITIES.map((i) => (
                <option key={i} value={i}>
                  {INTENSITY_TEXT[i].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Best for" error={errors.occasion}>
          {(p) => (
            <select {...p} name={PROFILE_FIELDS.occasion} defaultValue={profile.occasion ?? ""}>
              <option value="">Not set</option>
              {OCCASIONS.map((o) => (
                <option key={o} value={o}>
                  {OCCASION_TEXT[o].label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Made for" error={errors.audience}>
          {(p) => (
            <select {...p} name={PROFILE_FIELDS.audience} defaultValue={profile.audience ?? ""}>
              <option value="">Not set</option>
              {AUDIENCES.map((a) => (
                <option key={a} value={a}>
                  {AUDIENCE_TEXT[a]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset>
        <legend className="block text-xs font-medium uppercase tracking-[0.14em] text-ink-soft">Seasons</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {SEASONS.map((s) => (
            <label key={s} className="flex items-center gap-2 text-sm text-ink">
              <input type="checkbox" name={PROFILE_FIELDS.seasons} value={s} defaultChecked={profile.seasons.includes(s)} className="h-4 w-4 accent-[var(--color-ink)]" />
              {s.charAt(0).toUpperCase() + s.slice(1)}
            </label>
          ))}
        </div>
        {errors.seasons ? <p className="mt-1 text-sm text-danger">{errors.seasons}</p> : null}
      </fieldset>
    </section>
  );
}

/**
 * A tier's notes as one comma-separated box (works without JavaScript). Its <datalist> suggests the shared
 * vocabulary for the note being typed — after the last comma — so "bergamot, pi" offers "bergamot, pink pepper":
 * a datalist matches the whole value, so its options carry what is already typed in front.
 */
function NotesField({ label, name, defaultValue, error, hint }: { label: string; name: string; defaultValue: string; error?: string; hint?: string }) {
  const listId = useId();
  const [value, setValue] = useState(defaultValue);
  const cut = value.lastIndexOf(",");
  const before = cut >= 0 ? `${value.slice(0, cut + 1).trimEnd()} ` : "";
  const typing = (cut >= 0 ? value.slice(cut + 1) : value).trim().toLowerCase();
  const used = new Set(splitNotes(value).map((n) => n.toLowerCase()));
  const options = NOTE_VOCABULARY.filter((n) => !used.has(n) && (typing === "" || n.includes(typing)))
    .slice(0, 40)
    .map((n) => `${before}${n}`);
  return (
    <Field label={label} error={error} hint={hint}>
      {(p) => (
        <>
          <input {...p} name={name} value={value} onChange={(e) => setValue(e.target.value)} list={listId} maxLength={(NOTE_MAX_LENGTH + 2) * 8} autoComplete="off" />
          <datalist id={listId}>
            {options.map((o) => (
              <option key={o} value={o} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
