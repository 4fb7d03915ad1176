import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { collapse, tidy } from './sections';
import { ContentError, CONTENT_LIMITS, type ExtractedDocument, type ExtractedSection } from './types';

/**
 * A PDF's text, one section per page with the page as its anchor (`file.pdf#page=3` opens that page in every
 * browser's viewer). Parsed by PDF.js (the serverless build unpdf ships, pure JavaScript): its own JavaScript, forms
 * and fonts' code are never run, and `isEvalSupported: false` keeps PDF.js from compiling anything from the file.
 */
export async function extractPdf(body: Uint8Array, options: { name?: string }): Promise<ExtractedDocument> {
  if (!startsWithPdfHeader(body)) throw new ContentError('malformed', 'the file is not a PDF (it does not start with %PDF-)');
  // PDF.js takes ownership of (detaches) the buffer it is given: hand it a copy, the caller keeps the original.
  const pdf = await getDocumentProxy(body.slice(), { isEvalSupported: false, stopAtErrors: false }).catch((error: unknown) => {
    throw new ContentError('malformed', `the PDF cannot be read: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    if (pdf.numPages > CONTENT_LIMITS.maxPdfPages)
      throw new ContentError('too_large', `the PDF has ${pdf.numPages} pages, more than ${CONTENT_LIMITS.maxPdfPages}`);
    const { text: pages } = await extractText(pdf, { mergePages: false });
    const { info } = await getMeta(pdf);
    let chars = 0;
    const sections: ExtractedSection[] = [];
    pages.forEach((page, index) => {
      const text = tidy(page);
      chars += text.length;
      if (chars > CONTENT_LIMITS.maxTextChars)
        throw new ContentError('too_large', `the PDF's text is longer than ${CONTENT_LIMITS.maxTextChars.toLocaleString('en')} characters`);
      if (text) sections.push({ headingPath: [], anchor: `page=${index + 1}`, text });
    });
    const metaTitle = typeof (info as Record<string, unknown>).Title === 'string' ? collapse((info as Record<string, string>).Title!) : '';
    return { title: metaTitle || options.name || '', sections, links: [] };
  } finally {
    await pdf.destroy();
  }
}

const PDF_HEADER = '%PDF-';
/** The header may follow up to 1024 bytes of junk (as viewers accept), never more. */
function startsWithPdfHeader(body: Uint8Array): boolean {
  return Buffer.from(body.subarray(0, 1024 + PDF_HEADER.length)).includes(PDF_HEADER, 0, 'latin1');
}
