/**
 * Values that come from documentation or example files rather than a real account. Keys like these are
 * rejected up front (spec: keys from example files are invalid) instead of failing later, request by request.
 */
const PLACEHOLDER = /example|replace[_-]?with|your[_-]|changeme|placeholder|do[_-]?not[_-]?use|<[^>]+>|x{6,}/i;

/** True when a key or URL is an example placeholder. */
export function isPlaceholder(value: string): boolean {
  return PLACEHOLDER.test(value);
}
