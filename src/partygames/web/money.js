// Amounts of yen, one way per language across the client: "¥399,985,000" in English, 「3億9998万5000円」
// in Japanese (兆, 億 and 万 with their groups of four digits as written, no separators, empty groups left
// out: 「18億円」, 「1億5000万円」, 「0円」). Game renderers get it as ctx.yen.

const UNITS = [[1_000_000_000_000, "兆"], [100_000_000, "億"], [10_000, "万"]];

/** `n` yen in `lang`; `signed` writes a gain with "+" (a loss always has "−"). Not a number: as given. */
export function yen(n, lang, { signed = false } = {}) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n ?? "—");
  const sign = n < 0 ? "−" : signed && n > 0 ? "+" : "";
  let rest = Math.round(Math.abs(n));
  if (lang !== "ja") return `${sign}¥${rest.toLocaleString("en-US")}`;
  let text = "";
  for (const [size, unit] of UNITS) {
    const count = Math.floor(rest / size);
    if (count) text += `${count}${unit}`;
    rest -= count * size;
  }
  if (rest || !text) text += String(rest);
  return `${sign}${text}円`;
}
