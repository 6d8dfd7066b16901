// Turns a model description (HTML, Markdown, or a mix — model sites allow both) into plain text
// that is safe to render as a text node. Deliberately small: it removes markup, it does not try
// to reproduce layout beyond paragraphs and list items.

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  rsquo: "’",
  lsquo: "‘",
  rdquo: "”",
  ldquo: "“",
  deg: "°",
  times: "×",
  plusmn: "±",
  copy: "©",
  reg: "®",
  trade: "™",
  agrave: "à",
  aacute: "á",
  egrave: "è",
  eacute: "é",
  igrave: "ì",
  iacute: "í",
  ograve: "ò",
  oacute: "ó",
  ugrave: "ù",
  uacute: "ú",
  auml: "ä",
  ouml: "ö",
  uuml: "ü",
  Auml: "Ä",
  Ouml: "Ö",
  Uuml: "Ü",
  szlig: "ß",
  ccedil: "ç",
  ntilde: "ñ",
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

function stripHtml(s: string): string {
  return s
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<li\b[^>]*>/gi, "\n- ")
    .replace(/<\/(p|div|h[1-6]|ul|ol|blockquote|pre|table|tr)\s*>/gi, "\n\n")
    .replace(/<\/?[a-z][^>]*>/gi, "");
}

function stripMarkdown(s: string): string {
  return (
    s
      // images and links keep their visible text
      .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
      // headings, blockquotes, horizontal rules
      .replace(/^[ \t]*#{1,6}[ \t]+/gm, "")
      .replace(/^[ \t]*>[ \t]?/gm, "")
      .replace(/^[ \t]*([-*_])([ \t]*\1){2,}[ \t]*$/gm, "")
      // bullets normalised to "- "
      .replace(/^([ \t]*)[*+][ \t]+/gm, "$1- ")
      // strong/emphasis/code markers (not underscores inside words like file_name_v2)
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
      .replace(/(^|[^\w*])\*(?=\S)([^*\n]*?\S)\*(?!\w)/g, "$1$2")
      .replace(/(^|[^\w])_(?=\S)([^_\n]*?\S)_(?!\w)/g, "$1$2")
      .replace(/`{1,3}([^`]*)`{1,3}/g, "$1")
  );
}

export function toPlainText(input: string | null | undefined): string {
  if (!input) return "";
  let s = input.replace(/\r\n?/g, "\n");
  if (/<\/?[a-z][^>]*>/i.test(s)) s = stripHtml(s);
  s = stripMarkdown(s);
  s = decodeEntities(s);
  return s
    .replace(/\u00a0/g, " ")
    .split("\n")
    .map((line) => line.replace(/[ \t]+/g, " ").trimEnd())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
