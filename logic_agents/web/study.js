// Sortable tables: a click on a header orders the rows by that column (by a cell's data-v
// when it has one, a number when both read as numbers, else text); a second click reverses.
for (const table of document.querySelectorAll("table.sortable")) {
  const heads = table.tHead.rows[0].cells;
  for (let col = 0; col < heads.length; col++) {
    heads[col].addEventListener("click", () => {
      const body = table.tBodies[0];
      const up = heads[col].getAttribute("aria-sort") !== "ascending";
      for (const h of heads) h.removeAttribute("aria-sort");
      heads[col].setAttribute("aria-sort", up ? "ascending" : "descending");
      const key = (row) => {
        const cell = row.cells[col];
        return cell ? (cell.dataset.v ?? cell.textContent) : "";
      };
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = key(a), y = key(b);
        const nx = parseFloat(x), ny = parseFloat(y);
        const order = (!isNaN(nx) && !isNaN(ny))
          ? nx - ny : x.localeCompare(y, undefined, {numeric: true});
        return up ? order : -order;
      });
      for (const row of rows) body.appendChild(row);
    });
  }
}
