/**
 * How much room a sticky note's text takes in the n8n editor (2.x, the styles of its N8nSticky and N8nMarkdown
 * components): the note's wrapper has 8 px padding on top and 12 px on each side and hides what runs past its edge;
 * text is Inter at 14 px, paragraphs with line height 1.35 and 8 px below, list items with line height 1.3, 3.5 px
 * above and 20 px indent, a `##` heading at 24 px bold. Lines are wrapped word by word with average character widths
 * (bold and code a little wider), so the estimate errs on the large side.
 */

const PAD_TOP = 8;
const PAD_SIDE = 12;
const BORDER = 1;
const GAP = 8;

const WIDTH = { text: 7.2, bold: 7.8, code: 8.6, space: 3.9, heading: 14 };

/** Widths of the words of one line of markdown, with `**bold**` and `code` as they render. */
function wordWidths(line: string, charWidth: number): number[] {
	const widths: number[] = [];
	let current = 0;
	let style: 'text' | 'bold' | 'code' = 'text';
	for (let index = 0; index < line.length; index++) {
		if (line.startsWith('**', index) && style !== 'code') {
			style = style === 'bold' ? 'text' : 'bold';
			index++;
			continue;
		}
		if (line[index] === '`') {
			style = style === 'code' ? 'text' : 'code';
			current += 4;
			continue;
		}
		if (line[index] === ' ' && style !== 'code') {
			widths.push(current);
			current = 0;
			continue;
		}
		current += charWidth === WIDTH.text ? WIDTH[style] : charWidth;
	}
	return [...widths, current];
}

/** How many lines a line of markdown wraps to in a column this wide. */
function wrappedLines(line: string, columnWidth: number, charWidth = WIDTH.text): number {
	let lines = 1;
	let used = 0;
	for (const width of wordWidths(line, charWidth)) {
		const next = used === 0 ? width : used + WIDTH.space + width;
		if (next > columnWidth && used > 0) {
			lines++;
			used = width;
		} else {
			used = next;
		}
	}
	return lines;
}

/** The height a sticky note of this width needs to show all of its text (markdown as the examples write it). */
export function stickyHeightNeeded(content: string, width: number): number {
	const column = width - 2 * (PAD_SIDE + BORDER);
	let height = PAD_TOP + BORDER;
	let inList = false;
	for (const line of content.split('\n')) {
		const item = /^(\d+\.|-) /.exec(line);
		if (inList && !item) height += GAP;
		inList = Boolean(item);
		if (!line.trim()) continue;
		if (line.startsWith('## ')) height += wrappedLines(line.slice(3), column, WIDTH.heading) * 24 * 1.35 + GAP;
		else if (item) height += 3.5 + wrappedLines(line.slice(item[0].length), column - 20) * 14 * 1.3;
		else height += wrappedLines(line, column) * 14 * 1.35 + GAP;
	}
	return Math.ceil(height + BORDER);
}
