// The viewer in a real browser: headless Debian Chromium driven by playwright-core.
//
// Starts `plan2code serve` on 127.0.0.1 (port 0) over a fresh data directory, logs in through
// the link it prints, creates a job for the bundled example project (as a file:// git
// repository), pauses and resumes it, watches it complete, clicks mapped nodes and checks that
// the highlighted code lines are exactly the mapping's lines; then opens the HTML report of
// `plan2code map --format html` from file:// and checks the same. Screenshots go to
// $PLAN2CODE_SCREENSHOTS. Run by scripts/test (which builds the binary and installs Chromium).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, cpSync, readFileSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = process.env.PLAN2CODE_BIN;
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const SHOTS = process.env.PLAN2CODE_SCREENSHOTS || join(tmpdir(), 'plan2code-screenshots');
const PLAN = join(ROOT, 'events/plans/daily-revenue.formatted.txt');
const UI_PLAN = join(ROOT, 'events/plans/daily-revenue.ui.json');
const EVENT_LOG = join(ROOT, 'events/plans/daily-revenue.eventlog');

let scratch; let repoDir; let repoUrl; let server; let base; let login; let browser;

function git(dir, ...args) {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'ignore' });
}

// `plan2code serve` on a free port: resolves with its base URL and the login link it prints.
function startServer(env) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(BIN, ['serve', '--port', '0', '--store', join(scratch, 'store')], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = ''; let err = ''; let url; let link;
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${out}\n${err}`)), 30000);
    const check = () => {
      if (url && link) { clearTimeout(timer); resolvePromise({ child, url, link }); }
    };
    child.stdout.on('data', (d) => { out += d; const m = out.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/); if (m) { url = m[1]; check(); } });
    child.stderr.on('data', (d) => { err += d; const m = err.match(/(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)/); if (m) { link = m[1]; check(); } });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${err}`)));
  });
}

function tokenOf(link) { return new URL(link).searchParams.get('token'); }

async function apiGet(path) {
  const response = await fetch(base + '/api/v1/agent' + path, { headers: { Authorization: 'Bearer ' + tokenOf(login) } });
  assert.equal(response.status, 200, `GET ${path}`);
  return response.json();
}

function range(lines) {
  const [start, end] = lines.split('-').map(Number);
  return Array.from({ length: (end || start) - start + 1 }, (_, i) => start + i);
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

// The data-line numbers of the highlighted lines in the node panel.
// Read in the one evaluation that finds them: a redraw between a wait and a separate read
// (the job's last update re-rendering the panel) would read an empty box.
async function highlighted(page, mark = 'hit') {
  const lines = await page.waitForFunction((m) => {
    const found = [...document.querySelectorAll(`#code .line.${m}`)].map((e) => Number(e.dataset.line));
    return found.length ? found : null;
  }, mark);
  return lines.jsonValue();
}

before(async () => {
  assert.ok(BIN, 'PLAN2CODE_BIN names the plan2code binary');
  mkdirSync(SHOTS, { recursive: true });
  scratch = mkdtempSync(join(tmpdir(), 'plan2code-browser-'));
  repoDir = join(scratch, 'example');
  cpSync(join(ROOT, 'events/example-project'), repoDir, { recursive: true });
  git(repoDir, 'init', '-q', '-b', 'main');
  git(repoDir, 'add', '.');
  git(repoDir, 'commit', '-q', '-m', 'example');
  repoUrl = 'file://' + repoDir;
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME,
    PLAN2CODE_DATA_DIR: join(scratch, 'data'), REPO_CLONE_DIR: join(scratch, 'clones'),
    PLAN2CODE_LOCAL_ROOTS: scratch, PLAN2CODE_NODE_DELAY_MS: '400', MAX_PARALLEL_NODES: '1', RUST_LOG: 'warn',
  };
  server = await startServer(env);
  base = server.url;
  login = server.link;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
});

after(async () => {
  if (browser) await browser.close();
  if (server) server.child.kill('SIGTERM');
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test('log in through the printed link, map the example, pause, resume, click nodes', async () => {
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const outside = [];
  page.on('request', (r) => { if (!r.url().startsWith(base)) outside.push(r.url()); });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));

  await page.goto(login);
  assert.ok(login.startsWith(base + '/?token='), login);
  await page.waitForSelector('#new-job');
  assert.equal(new URL(page.url()).searchParams.get('token'), null, 'the token leaves the address bar');
  await shot(page, '1-home');

  await page.fill('#repo', repoUrl);
  await page.fill('#plan', readFileSync(PLAN, 'utf8'));
  await page.click('#create');
  await page.waitForURL(/\/jobs\/[^/]+$/);
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop());

  // Pause while it runs; nothing moves until resumed.
  await page.waitForSelector('#pause:not([disabled])');
  await page.click('#pause');
  await page.waitForSelector('#job-status:text("paused")', { timeout: 30000 });
  const parked = (await apiGet('/jobs/' + id)).statistics.mappedNodes;
  await new Promise((r) => setTimeout(r, 1500));
  const stillParked = await apiGet('/jobs/' + id);
  assert.equal(stillParked.status, 'paused');
  assert.ok(stillParked.statistics.mappedNodes <= parked + 1, 'a paused job stops mapping (one node may finish)');
  await shot(page, '2-paused');
  // a redraw (resuming reloads the job) keeps the reader's place in the graph
  await page.$eval('#graph', (el) => { el.scrollTop = 200; });
  await page.click('#resume');
  await page.waitForSelector('#job-status:text("running"), #job-status:text("completed")');
  assert.equal(await page.$eval('#graph', (el) => el.scrollTop), 200, 'the graph keeps its scroll position');
  await page.waitForSelector('#job-status:text("completed")', { timeout: 60000 });
  await page.waitForSelector('#graph svg .node');
  await shot(page, '3-completed');

  const job = await apiGet('/jobs/' + id);
  assert.equal(job.status, 'completed');
  const mapped = job.result.mappings.filter((m) => m.mappedCode);
  assert.ok(mapped.length >= 3, `mapped nodes: ${mapped.length}`);
  const drawn = await page.$$eval('#graph .node', (els) => els.length);
  assert.equal(drawn, job.statistics.totalNodes, 'every node is drawn');

  for (const mapping of mapped.slice(0, 3)) {
    await page.click(`#graph .node[data-key="${mapping.dagNodeId}"]`);
    await page.waitForSelector(`#code .file:text("${mapping.mappedCode.file}:${mapping.mappedCode.lines}")`);
    assert.deepEqual(await highlighted(page), range(mapping.mappedCode.lines), `node ${mapping.dagNodeId}`);
    assert.equal(await page.textContent('#location'), `${mapping.mappedCode.file}:${mapping.mappedCode.lines}`);
    const band = await page.textContent('#band');
    assert.ok(band.includes(mapping.confidenceStatus), band);
    // the four confidence factors, each a bar with its value
    const factors = await page.$$eval('#node-panel .factors .num', (els) => els.map((e) => Number(e.textContent)));
    const f = mapping.confidenceFactors;
    assert.deepEqual(factors, [f.embeddingScore, f.astScore, f.llmConfidence, f.keywordMatch].map((v) => Number((v || 0).toFixed(2))));
    assert.equal(await page.textContent('#explanation'), mapping.explanation);
  }
  const withAlternative = mapped.find((m) => m.alternatives.length);
  if (withAlternative) {
    await page.click(`#graph .node[data-key="${withAlternative.dagNodeId}"]`);
    // the panel is redrawn for the node clicked: its own alternatives, not the last node's
    const { file, lines } = withAlternative.mappedCode;
    await page.waitForSelector(`#code .file:text("${file}:${lines}")`);
    await page.click('.show-alternative[data-index="0"]');
    assert.deepEqual(await highlighted(page, 'alt'), range(withAlternative.alternatives[0].lines));
  }
  await shot(page, '4-node-panel');

  // My jobs lists it.
  await page.click('header a.brand');
  await page.waitForSelector(`#my-jobs a:text("${id}")`);
  assert.deepEqual(errors, [], 'no script errors');
  assert.deepEqual(outside, [], 'the page asks nothing of any other server');
  await page.close();
});

test('the HTML report opens from file:// and shows the same mappings, and hot lines with metrics', async () => {
  const report = join(scratch, 'report.html');
  const env = { ...process.env, PLAN2CODE_DATA_DIR: join(scratch, 'cli-data'), REPO_CLONE_DIR: join(scratch, 'clones') };
  execFileSync(BIN, ['map', '--plan', PLAN, '--repo', repoDir, '--format', 'html', '--out', report], { env, stdio: 'ignore' });
  const result = JSON.parse(execFileSync(BIN, ['map', '--plan', PLAN, '--repo', repoDir, '--format', 'json'], { env }).toString());
  const page = await browser.newPage({ viewport: { width: 1500, height: 1000 } });
  const outside = [];
  page.on('request', (r) => { if (!r.url().startsWith('file://')) outside.push(r.url()); });
  await page.goto('file://' + report);
  await page.waitForSelector('#graph svg .node');
  const mapped = result.result.mappings.filter((m) => m.mappedCode);
  for (const mapping of mapped.slice(0, 3)) {
    await page.click(`#graph .node[data-key="${mapping.dagNodeId}"]`);
    await page.waitForSelector(`#code .file:text("${mapping.mappedCode.file}:${mapping.mappedCode.lines}")`);
    assert.deepEqual(await highlighted(page), range(mapping.mappedCode.lines));
    // the report embeds the file, highlighted: more than the snippet is shown
    assert.ok(await page.$$eval('#code .line', (els) => els.length) > range(mapping.mappedCode.lines).length);
  }
  await shot(page, '5-report');
  assert.deepEqual(outside, []);

  // A UI JSON plan carries metrics: the report ranks hot lines and offers the heat overlay.
  const uiReport = join(scratch, 'report-ui.html');
  execFileSync(BIN, ['map', '--plan', UI_PLAN, '--repo', repoDir, '--format', 'html', '--out', uiReport], { env, stdio: 'ignore' });
  await page.goto('file://' + uiReport);
  await page.waitForSelector('table.hot tbody tr');
  assert.ok(await page.$$eval('table.hot tbody tr', (els) => els.length) >= 1);
  await page.selectOption('#metric', 'timeMs');
  await page.click('table.hot tbody tr');
  await page.waitForSelector('#code .line.hit');
  await shot(page, '6-report-hot-lines');

  // The run's event log: the whole application, one graph per execution, costs from its
  // accumulators; a hot line of another execution switches the graph to it.
  const logReport = join(scratch, 'report-log.html');
  execFileSync(BIN, ['map', '--plan', EVENT_LOG, '--repo', repoDir, '--format', 'html', '--out', logReport], { env, stdio: 'ignore' });
  await page.goto('file://' + logReport);
  await page.waitForSelector('table.hot tbody tr');
  const executions = await page.$$eval('#execution option', (els) => els.length);
  assert.ok(executions >= 2, `executions: ${executions}`);
  const before = await page.inputValue('#execution');
  const rows = await page.$$('table.hot tbody tr');
  let switched = false;
  for (const row of rows) {
    const key = await row.getAttribute('data-key');
    await row.click();
    await page.waitForSelector(`#graph .node.selected[data-key="${key}"]`);
    if ((await page.inputValue('#execution')) !== before) switched = true;
  }
  assert.ok(switched, 'the hot lines span executions and follow them');
  await shot(page, '7-report-event-log');
  await page.close();
});
