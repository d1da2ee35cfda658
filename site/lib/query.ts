/** The class a sign-up page is about, from its query (title, date, location). */
export function classFromQuery(search: string = typeof location === 'undefined' ? '' : location.search) {
  const q = new URLSearchParams(search);
  return { title: q.get('title') ?? '', date: q.get('date') ?? '', location: q.get('location') ?? '' };
}

/** /signup?date=…&title=…&location=… with title and location URL-encoded (SPEC.md section 2). */
export function newStudentHref(c: { title: string; date: string; location: string }): string {
  return `/signup?date=${c.date}&title=${encodeURIComponent(c.title)}&location=${encodeURIComponent(c.location)}`;
}
