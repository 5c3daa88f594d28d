// The browser test of `plainsql serve`'s page (issue #23): Debian's headless Chromium, driven by playwright-core, types
// questions, waits for the result table and checks its cells, edits and re-runs the SQL, opens the schema view and
// checks its naturalness colours, and saves screenshots of both pages.
// Usage: node browser_test.mjs BASE_URL SCREENSHOT_DIR
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";

const [base, shots] = process.argv.slice(2);
if (!base || !shots) {
  console.error("usage: node browser_test.mjs BASE_URL SCREENSHOT_DIR");
  process.exit(2);
}
mkdirSync(shots, { recursive: true });

function check(ok, what) {
  if (!ok) throw new Error("FAIL: " + what);
  console.log("ok - " + what);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const problems = [];
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(20000);
  page.on("pageerror", (e) => problems.push("page error: " + e.message));
  // HTTP errors the page meets on purpose (a refused write, no runs database) are checked where they happen.
  page.on("console", (m) => {
    if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push("console: " + m.text());
  });
  await page.goto(base);
  await page.waitForSelector("#conn option", { state: "attached" });
  check((await page.textContent("#conn option")).includes("plant"), "the database list names the sample database");

  async function ask(question) {
    await page.fill("#question", question);
    await page.click("#ask-button");
    await page.waitForFunction(() => document.querySelector("#result tbody tr") &&
      !document.querySelector("#ask-button").disabled);
  }
  const cells = () => page.$$eval("#result tbody td", (tds) => tds.map((td) => td.textContent));

  await ask("How many plants are there?");
  check(JSON.stringify(await cells()) === JSON.stringify(["6"]), "How many plants are there? -> one cell, 6");
  check((await page.textContent("#sql-view")).toLowerCase().includes("count"), "the SQL is shown");
  check(await page.$("#sql-view .kw") !== null, "the SQL is highlighted");

  await ask("How many spare parts are there for each group?");
  const rows = await page.$$eval("#result tbody tr", (trs) => trs.length);
  check(rows >= 2, `a count per group gives several rows (${rows})`);
  const bars = await page.$$eval("#chart svg rect", (r) => r.length);
  check(bars === rows, `a count per group is drawn as a bar chart, one bar a row (${bars})`);
  await page.screenshot({ path: `${shots}/ask.png`, fullPage: true });

  await page.click("#sql-edit");
  await page.fill("#sql-text", "SELECT plant_name FROM plant ORDER BY plant_name LIMIT 2");
  await page.click("#sql-run");
  await page.waitForFunction(() => document.querySelectorAll("#result tbody tr").length === 2);
  const edited = await cells();
  check(edited.length === 2 && edited[0] <= edited[1], `the edited SQL ran: ${JSON.stringify(edited)}`);
  check(await page.isHidden("#chart svg") || (await page.$("#chart svg")) === null, "one text column draws no chart");

  await page.click("#sql-edit");
  await page.fill("#sql-text",
    "SELECT strftime('%Y', CRT_DT) AS year, count(*) AS orders FROM TB_MO GROUP BY year ORDER BY year");
  await page.click("#sql-run");
  await page.waitForSelector("#chart svg polyline");
  const years = await page.$$eval("#result tbody tr", (trs) => trs.length);
  const points = await page.$$eval("#chart svg circle", (c) => c.length);
  check(years >= 2 && points === years, `a count per year is drawn as a line, one point a year (${points})`);

  await page.click("#sql-edit");
  await page.fill("#sql-text", "DELETE FROM plant");
  await page.click("#sql-run");
  await page.waitForSelector("#error:not([hidden])");
  check((await page.textContent("#error")).includes("read-only"), "a write is refused with the guard's message");

  await page.click('.tab[data-tab="schema"]');
  await page.waitForSelector(".tcard");
  const cards = await page.$$eval(".tcard h3", (hs) => hs.map((h) => h.textContent));
  check(cards.some((c) => c.startsWith("TB_MO")), "the schema view lists TB_MO");
  const least = await page.$$eval(".tcard li .lvl.N3", (s) => s.map((x) => x.textContent));
  const regular = await page.$$eval(".tcard li .lvl.N1", (s) => s.map((x) => x.textContent));
  check(least.includes("MFR_NM"), "MFR_NM is coloured Least natural");
  check(regular.includes("plant_name"), "plant_name is coloured Regular");
  check((await page.textContent("#profile h2")).includes("Naturalness"), "the profile's score is shown");
  await page.screenshot({ path: `${shots}/schema.png`, fullPage: true });

  await page.click('.tab[data-tab="runs"]');
  await page.waitForSelector("#runs td");
  const runCells = await page.$$eval("#runs td", (tds) => tds.map((td) => td.textContent));
  check(runCells.includes("browser") && runCells.includes("done"), `the runs view lists the run: ${runCells.slice(0, 5)}`);
  const [report] = await Promise.all([page.context().waitForEvent("page"), page.click("#runs button")]);
  await report.waitForLoadState();
  const reportText = await report.textContent("body");
  check(/EX|execution/i.test(reportText), "the run's report opens in a new tab");
  await report.close();
  check(problems.length === 0, "no script errors: " + problems.join("; "));
} finally {
  await browser.close();
}
