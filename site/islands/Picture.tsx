import { photoSizes, type PictureView } from '../../contract/images.ts';

interface Props {
  picture: PictureView;
  alt: string;
  /** Which width the layout gives the photo, for the browser to pick from the srcset. */
  sizes: string;
  /** The first photo a visitor sees: fetched at once and ahead of the rest. */
  priority?: boolean;
  /**
   * 'landscape': the box is wider than tall (a card, a slide, a thumbnail) and covers it, so a
   * portrait photo's landscape cut (4:3, around her focal point) is loaded instead of the whole
   * portrait, of which the box would hide half.
   */
  box?: 'landscape';
  className?: string;
}

/** The srcsets and intrinsic size to use for a box: the landscape cut when there is one and the box wants it. */
export function pictureFor(picture: PictureView, box: 'landscape' | undefined) {
  const cut = box === 'landscape' ? picture.crop : undefined;
  return cut ? { avif: cut.avif, webp: cut.webp, width: cut.width, height: cut.height } : picture;
}

/**
 * An uploaded photo (api/images/): AVIF first (every browser that takes it), then WebP, in every
 * size the server made, with its intrinsic width and height (the page never shifts when it
 * arrives) and the tiny blurred placeholder painted behind it until it does.
 */
export default function Picture({ picture, alt, sizes, priority = false, box, className }: Props) {
  const use = pictureFor(picture, box);
  // A DPR 3 phone chooses as a 2× one would (decision 0049).
  const shown = photoSizes(sizes);
  return (
    <picture className={className ? `photo ${className}` : 'photo'}>
      {use.avif && <source type="image/avif" srcSet={use.avif} sizes={shown} />}
      <source type="image/webp" srcSet={use.webp} sizes={shown} />
      <img
        src={picture.src}
        alt={alt}
        width={use.width}
        height={use.height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : 'auto'}
        decoding="async"
        data-placeholder=""
        style={picture.placeholder ? { backgroundImage: `url("${picture.placeholder}")` } : undefined}
        // The placeholder would show through a transparent PNG: it goes once the photo is there.
        onLoad={(e) => e.currentTarget.style.removeProperty('background-image')}
      />
    </picture>
  );
}
