/** How a page shows in a search result, from the words she is typing: title, address, description. */

/** Search engines show about this much of each before cutting it with "…". */
const TITLE_CHARS = 60;
const DESCRIPTION_CHARS = 155;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text);

export function SeoPreview(props: { title: string; description: string; path: string }) {
  const title = props.title.trim();
  const description = props.description.trim();
  const origin = typeof window === 'undefined' ? '' : window.location.host;
  const crumbs = [origin, ...props.path.split('/').filter(Boolean)].join(' › ');
  const notes = [
    title.length > TITLE_CHARS ? `The title is ${title.length} characters: search results cut it after about ${TITLE_CHARS}.` : '',
    description.length > DESCRIPTION_CHARS
      ? `The description is ${description.length} characters: search results cut it after about ${DESCRIPTION_CHARS}.`
      : '',
  ].filter(Boolean);
  return (
    <figure className="seo-preview">
      <figcaption>How a search result shows this page</figcaption>
      <div className="seo-preview-result">
        <span className="seo-preview-url">{crumbs}</span>
        <span className="seo-preview-title">{cut(title, TITLE_CHARS) || 'Page title'}</span>
        <span className="seo-preview-description">{cut(description, DESCRIPTION_CHARS) || 'The description goes here.'}</span>
      </div>
      {notes.map((n) => (
        <p key={n} className="field-hint">
          {n}
        </p>
      ))}
    </figure>
  );
}
