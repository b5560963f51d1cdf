import { useId } from "react";
import { Form } from "react-router";
import type { FinderAnswers } from "~/modules/scent/scent.logic";
import { BUDGET_CHOICES, FINDER_PARAMS, LOVE_MAX_LENGTH } from "~/modules/scent/scent.schema";
import {
  AUDIENCES,
  AUDIENCE_TEXT,
  FAMILY_TEXT,
  INTENSITIES,
  INTENSITY_TEXT,
  OCCASIONS,
  OCCASION_TEXT,
  SCENT_FAMILIES,
} from "~/modules/scent/scent.vocabulary";
import { buttonClass } from "~/components/ui/button";

/**
 * The scent finder's five questions as one GET form (/scent-finder?for=…&when=…): it works as a plain form without
 * JavaScript, and the answers end up in a shareable, cacheable URL. Six taps at most: one answer per question (the
 * third takes a kind of scent OR a fragrance they love — one question with two ways to answer) and the button.
 * Each question is a fieldset sized to fit a 360 px phone screen; with JavaScript, answering one glides to the next.
 */
export function FinderForm({ answers, loves, submitLabel = "Show my three scents" }: { answers: FinderAnswers; loves: string[]; submitLabel?: string }) {
  const listId = useId();
  return (
    <Form
      method="get"
      action="/scent-finder"
      preventScrollReset={false}
      className="space-y-6 sm:space-y-8"
      onChange={(event) => {
        // Glide to the next question after a single-choice answer (never for ticks: several kinds may be chosen).
        const input: EventTarget = event.target;
        if (!(input instanceof HTMLInputElement) || input.type !== "radio") return;
        const next = input.closest("fieldset")?.nextElementSibling;
        if (next instanceof HTMLElement) {
          const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
          next.scrollIntoView({ behavior: reduce ? "auto" : "smooth", block: "start" });
        }
      }}
    >
      <Question n={1} title="Who is it for?">
        <div className="grid grid-cols-3 gap-2 sm:gap-3">
          {AUDIENCES.map((a) => (
            <Choice key={a} type="radio" name={FINDER_PARAMS.audience} value={a} checked={answers.audience === a} label={a === "anyone" ? "Anyone" : `For ${AUDIENCE_TEXT[a].toLowerCase()}`} />
          ))}
        </div>
      </Question>

      <Question n={2} title="When will it be worn?">
        <div className="grid gap-2 sm:grid-cols-3 sm:gap-3">
          {OCCASIONS.map((o) => (
            <Choice key={o} type="radio" name={FINDER_PARAMS.occasion} value={o} checked={answers.occasion === o} label={OCCASION_TEXT[o].label} hint={OCCASION_TEXT[o].everyday} />
          ))}
        </div>
      </Question>

      <Question n={3} title="What do you like to smell of?" lead="Tick one or more, or name a fragrance you already love.">
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-5 sm:gap-3">
          {SCENT_FAMILIES.map((f) => (
            <Choice key={f} type="checkbox" name={FINDER_PARAMS.family} value={f} checked={answers.families.includes(f)} label={FAMILY_TEXT[f].label} hint={FAMILY_TEXT[f].everyday} compact />
          ))}
        </div>
        <label className="mt-4 block">
          <span className="filter-label">A fragrance you love (designer or name)</span>
          <input
            type="search"
            name={FINDER_PARAMS.love}
            defaultValue={answers.love}
            list={listId}
            maxLength={LOVE_MAX_LENGTH}
            autoComplete="off"
            enterKeyHint="next"
            placeholder="e.g. Tom Ford, Sauvage"
            className="filter-control mt-1"
          />
        </label>
        <datalist id={listId}>
          {loves.map((l) => (
            <option key={l} value={l} />
          ))}
        </datalist>
      </Question>

      <Question n={4} title="How strong?">
        <div className="grid gap-2 sm:grid-cols-3 sm:gap-3">
          {INTENSITIES.map((i) => (
            <Choice key={i} type="radio" name={FINDER_PARAMS.intensity} value={i} checked={answers.intensity === i} label={INTENSITY_TEXT[i].label} hint={INTENSITY_TEXT[i].everyday} />
          ))}
        </div>
      </Question>

      <Question n={5} title="Your budget for one bottle?">
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4 sm:gap-3">
          {BUDGET_CHOICES.map((b) => (
            <Choice key={b} type="radio" name={FINDER_PARAMS.budget} value={String(b)} checked={answers.budgetRand === b} label={`Up to R${b}`} />
          ))}
          <Choice type="radio" name={FINDER_PARAMS.budget} value="any" checked={false} label="Any budget" />
        </div>
        {/* a shared link's own budget (not one of the choices) stays in the form so changing another answer keeps it */}
        {answers.budgetRand !== null && !(BUDGET_CHOICES as readonly number[]).includes(answers.budgetRand) ? (
          <label className="mt-3 flex items-center gap-3 text-sm text-ink-soft">
            <input type="radio" name={FINDER_PARAMS.budget} value={String(answers.budgetRand)} defaultChecked className="h-4 w-4 accent-[var(--color-gold)]" />
            Up to R{answers.budgetRand} (from your link)
          </label>
        ) : null}
        <button type="submit" name="go" value="1" className={buttonClass("primary", "lg", "mt-6 w-full sm:w-auto")}>
          {submitLabel}
        </button>
      </Question>
    </Form>
  );
}

function Question({ n, title, lead, children }: { n: number; title: string; lead?: string; children: React.ReactNode }) {
  return (
    <fieldset className="scroll-mt-24 border-t border-line pt-5 sm:pt-7" data-question={n}>
      <legend className="contents">
        <span className="eyebrow block">Question {n} of 5</span>
        <span className="mt-1.5 block font-display text-[1.7rem] leading-tight text-ink sm:text-3xl">{title}</span>
      </legend>
      {lead ? <p className="mt-1 text-sm text-ink-soft">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </fieldset>
  );
}

/**
 * One answer as a tappable tile: the native input stays (keyboard, forms without JavaScript, screen readers), drawn
 * as a small mark inside a bordered label that turns ink-on-sand when chosen.
 */
function Choice({
  type,
  name,
  value,
  checked,
  label,
  hint,
  compact = false,
}: {
  type: "radio" | "checkbox";
  name: string;
  value: string;
  checked: boolean;
  label: string;
  hint?: string;
  compact?: boolean;
}) {
  return (
    <label
      className={`relative flex min-h-12 cursor-pointer flex-col justify-center border border-line bg-white/70 transition-colors hover:border-ink/40 has-[:checked]:border-ink has-[:checked]:bg-sand has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-gold ${
        compact ? "px-3 py-2" : "px-3.5 py-2.5"
      }`}
    >
      <input type={type} name={name} value={value} defaultChecked={checked} className="peer absolute top-2.5 right-2.5 h-3.5 w-3.5 accent-[var(--color-ink)]" />
      <span className={`pr-5 font-medium text-ink ${compact ? "text-[0.82rem] leading-tight" : "text-sm"}`}>{label}</span>
      {hint ? <span className={`mt-0.5 block pr-1 text-ink-soft ${compact ? "text-[0.7rem] leading-snug" : "text-xs leading-snug"}`}>{hint}</span> : null}
    </label>
  );
}
