import type { PictureView } from '../../contract/images.ts';

interface Props {
  picture: PictureView;
  alt: string;
  /** Which width the layout gives the photo, for the browser to pick from the srcset. */
  sizes: string;
  /** The first photo a visitor sees: fetched at once and ahead of the rest. */
  priority?: boolean;
}

/**
 * An uploaded photo (api/images/): AVIF, then WebP, in every size the server made, with its
 * intrinsic width and height (the page never shifts when it arrives) and the tiny blurred
 * placeholder painted behind it until it does.
 */
export default function Picture({ picture, alt, sizes, priority = false }: Props) {
  return (
    <picture className="photo">
      {picture.avif && <source type="image/avif" srcSet={picture.avif} sizes={sizes} />}
      <source type="image/webp" srcSet={picture.webp} sizes={sizes} />
      <img
        src={picture.src}
        alt={alt}
        width={picture.width}
        height={picture.height}
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
