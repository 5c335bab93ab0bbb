// What the portal and the dashboard share: amounts as currency, dates in the reader's locale and time zone, and
// the labels a stacked table shows on narrow screens. (The checkout page keeps its own copy of `money`: its
// script is also run on its own, without imports, by checkout-page.int.test.ts.)

export const money = (amount, currency = "usd") =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(amount / 100);

const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

/** A `<time>` with the ISO instant in `datetime`, shown as e.g. "25 Nov 2026, 14:03" in the reader's locale and zone. */
export function dateTime(iso) {
  if (!iso) return "";
  const time = document.createElement("time");
  time.dateTime = iso;
  const date = new Date(iso);
  time.textContent = Number.isNaN(date.getTime()) ? iso : dateTimeFormat.format(date);
  time.title = Number.isNaN(date.getTime()) ? iso : `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  return time;
}

/** A table cell holding text, a node (a `<time>`, a button) or nothing. */
export function cell(content, className) {
  const td = document.createElement("td");
  if (content instanceof Node) td.append(content);
  else td.textContent = content ?? "";
  if (className) td.className = className;
  return td;
}

/**
 * Fills a table's body with one row per item, or one "Nothing yet." row. Each cell gets its column's name as
 * `data-label`, which a stacked table shows before the value on narrow screens (a column marked
 * `data-actions` holds buttons and needs none).
 */
export function fillTable(tbody, items, toCells) {
  const headers = [...tbody.closest("table").querySelectorAll("thead th")];
  if (items.length === 0) {
    const td = cell("Nothing yet.", "empty");
    td.colSpan = headers.length;
    const tr = document.createElement("tr");
    tr.append(td);
    tbody.replaceChildren(tr);
    return;
  }
  tbody.replaceChildren(
    ...items.map((item) => {
      const tr = document.createElement("tr");
      toCells(item).forEach((td, index) => {
        const header = headers[index];
        if (header && !("actions" in header.dataset)) td.dataset.label = header.textContent.trim();
        tr.append(td);
      });
      return tr;
    }),
  );
}

/** A provider enum value as words: "subscription_cycle" → "Subscription cycle". */
export const words = (value) => (value ? value.charAt(0).toUpperCase() + value.slice(1).replaceAll("_", " ") : "");
