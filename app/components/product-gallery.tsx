import { useState } from "react";
import { PLACEHOLDER_IMAGE, inlineOnPhone, sizedImage, srcSetFor } from "~/modules/media/images";

/** Main image at up to ~560 px wide on desktop, the full width on phones. */
const MAIN_SIZES = "(min-width: 1024px) 560px, (min-width: 768px) 50vw, 100vw";

/**
 * The product's images: a large main image and, when there are several, a row of thumbnails that switch it.
 * The main image loads eagerly with high priority (it is the page's largest paint); thumbnails load lazily.
 */
export function ProductGallery({ images, name }: { images: string[]; name: string }) {
  const [index, setIndex] = useState(0);
  const current = images[index] ?? null;

  return (
    <div className="flex flex-col gap-4">
      <div className="relative aspect-[6/5] overflow-hidden bg-sand sm:aspect-[4/5]">
        {current ? (
          <img
            key={current}
            src={sizedImage(current, 800)}
            srcSet={srcSetFor(current)}
            sizes={MAIN_SIZES}
            alt={images.length > 1 ? `${name}, image ${index + 1} of ${images.length}` : name}
            width={800}
            height={1000}
            loading="eager"
            fetchPriority={index === 0 ? "high" : "auto"}
            {...(index === 0 ? inlineOnPhone(current, 800) : {})}
            decoding="async"
            className="h-full w-full object-cover"
          />
        ) : (
          <img src={PLACEHOLDER_IMAGE} alt={`${name}: no photograph yet`} width={800} height={1000} className="h-full w-full object-cover" />
        )}
        <span aria-hidden="true" className="pointer-events-none absolute inset-4 border border-ivory/50" />
      </div>

      {images.length > 1 ? (
        <ul className="grid grid-cols-5 gap-3" aria-label="Product images">
          {images.map((src, i) => (
            <li key={src}>
              <button
                type="button"
                onClick={() => setIndex(i)}
                aria-pressed={i === index}
                aria-label={`Show image ${i + 1} of ${images.length}`}
                className={`block aspect-square w-full overflow-hidden bg-sand ring-offset-2 ring-offset-ivory transition ${
                  i === index ? "ring-1 ring-gold" : "opacity-70 hover:opacity-100"
                }`}
              >
                <img src={sizedImage(src, 400)} alt="" width={120} height={120} loading="lazy" decoding="async" className="h-full w-full object-cover" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
