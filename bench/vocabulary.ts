/**
 * What the bench corpus talks about, and the query mix that searches it. Kept apart from the builder (which loads
 * pi) so the orchestrator can name cwds and terms without importing pi, and so every query term is known to occur.
 */

/** A working directory sessions run in, with the language its files are written in. */
export interface Project {
	cwd: string;
	lang: Lang;
	/** Relative weight when a session picks its project. */
	w: number;
}

/** Source languages the content pools cover. */
export type Lang = "ts" | "tsx" | "py" | "go" | "rs" | "hcl" | "md" | "sh";

/** Projects: nested ones, a string-prefix sibling, a CJK path and two that are not repositories. */
export const PROJECTS: readonly Project[] = [
	{ cwd: "/home/dev/src/acme-payments", lang: "ts", w: 6 },
	{ cwd: "/home/dev/src/acme-payments/services/billing", lang: "ts", w: 3 },
	{ cwd: "/home/dev/src/acme-payments-web", lang: "tsx", w: 2 },
	{ cwd: "/home/dev/src/web-dashboard", lang: "tsx", w: 4 },
	{ cwd: "/home/dev/src/web-dashboard/packages/charts", lang: "tsx", w: 2 },
	{ cwd: "/home/dev/src/data-pipeline", lang: "py", w: 4 },
	{ cwd: "/home/dev/src/edge-proxy", lang: "go", w: 3 },
	{ cwd: "/home/dev/src/searchd", lang: "rs", w: 2 },
	{ cwd: "/home/dev/项目/搜索服务", lang: "rs", w: 2 },
	{ cwd: "/home/dev/ops/terraform-live", lang: "hcl", w: 1 },
	{ cwd: "/home/dev/notes", lang: "md", w: 1 },
	{ cwd: "/tmp/scratch", lang: "sh", w: 1 },
];

/** Where a corpus keeps its flat (pi `sessionDir`-style) sessions, inside its agent dir: a second session root. */
export const FLAT_SESSIONS_DIR = "flat-sessions";

/** The directory name pi 0.73.1 derives from a cwd (getDefaultSessionDir): lossy, so lookups use header.cwd. */
export function encodeCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** Planted in one family in RARE_EVERY (and the forks that copy it), so it is rare and its count is known. */
export const RARE_IDENTIFIER = "reconcileLedgerDrift";
/** One family in this many carries RARE_IDENTIFIER. */
export const RARE_EVERY = 200;

/** One query of the mix, with the fixed strings `rg` looks for to answer the same question. */
export interface MixQuery {
	name: string;
	/** How the table names it: the kind of query and its text, briefly. */
	label: string;
	query: string;
	filters?: { cwds?: string[]; kinds?: Array<"tool.result" | "tool.call" | "user.text">; branchStates?: Array<"alternate" | "selected"> };
	/** Fixed strings that must all occur in a file (rg runs once per string, each over the previous pass's files). */
	rg: string[];
	/** Restricts rg to these cwds' session directories (plus the flat dir, whose files mix cwds). */
	rgCwds?: string[];
	/**
	 * The same question to the FTS5 trigram peer: an FTS5 MATCH (each term a quoted substring of ≥ 3 characters),
	 * and what the peer cannot express (it has no tree, so no branch state).
	 */
	trigram: { match: string; unsupported?: string };
}

/** The query mix of DESIGN §7: rare identifier, common word, two terms, phrase, CJK, and filtered by cwd, kind, branch. */
export const QUERY_MIX: readonly MixQuery[] = [
	{
		name: "rare identifier",
		label: "rare identifier  reconcileLedgerDrift",
		query: RARE_IDENTIFIER,
		rg: [RARE_IDENTIFIER],
		trigram: { match: `"${RARE_IDENTIFIER}"` },
	},
	{ name: "common word", label: "common word  error", query: "error", rg: ["error"], trigram: { match: '"error"' } },
	{
		name: "two terms",
		label: "two terms  handleWebhook timeout",
		query: "handleWebhook timeout",
		rg: ["handleWebhook", "timeout"],
		trigram: { match: '"handleWebhook" AND "timeout"' },
	},
	{
		name: "phrase",
		label: 'phrase  "cannot read properties"',
		query: '"cannot read properties"',
		rg: ["Cannot read properties"],
		trigram: { match: '"cannot read properties"' },
	},
	{ name: "CJK", label: "CJK  内存泄漏", query: "内存泄漏", rg: ["内存泄漏"], trigram: { match: '"内存泄漏"' } },
	{
		name: "cwd filter",
		label: "cwd filter  retry_with_backoff cwd=…/acme-payments",
		query: "retry_with_backoff",
		filters: { cwds: ["/home/dev/src/acme-payments"] },
		rg: ["retry_with_backoff"],
		rgCwds: ["/home/dev/src/acme-payments", "/home/dev/src/acme-payments/services/billing"],
		trigram: { match: '"retry_with_backoff"' },
	},
	{
		name: "kind filter",
		label: "kind filter  ECONNREFUSED kind=tool.result",
		query: "ECONNREFUSED",
		filters: { kinds: ["tool.result"] },
		rg: ["ECONNREFUSED"],
		trigram: { match: '"ECONNREFUSED"' },
	},
	{
		name: "branch filter",
		label: "branch filter  migration branch=alternate",
		query: "migration",
		filters: { branchStates: ["alternate"] },
		rg: ["migration"],
		trigram: { match: '"migration"', unsupported: "no branch state: unfiltered" },
	},
];

/** A query as a model or a person writes it (issue 28): answered by the tiers after "every word as written". */
export interface AgentMixQuery {
	name: string;
	/** How the table names it: what it is made of, and its text. */
	label: string;
	query: string;
	filters?: MixQuery["filters"];
	/** Searched as the Pi tools search: for a caller in this workspace (its sessions, by list). */
	caller?: { root: string };
}

/**
 * Agent-style queries over the bench corpus, their own rows beside the mix: a rare and a common identifier in the
 * words a model wraps them in (partial matches; the filler words are not in the corpus), the same in a cwd, a query
 * as the Pi tools make it (scoped to a workspace's sessions, by list), words the corpus holds only in another form
 * (inflections), one-letter typos (did-you-mean stands in for them), and three words that match nothing (the answer
 * is the notes alone).
 */
export const AGENT_MIX: readonly AgentMixQuery[] = [
	{ name: "wordy rare", label: `wordy, rare  where was ${RARE_IDENTIFIER} discussed before`, query: `where was ${RARE_IDENTIFIER} discussed before` },
	{ name: "wordy common", label: "wordy, common  handleWebhook timeout root cause and solution", query: "handleWebhook timeout root cause and solution" },
	{ name: "wordy prose", label: "wordy, prose  how did we fix the EADDRINUSE port error", query: "how did we fix the EADDRINUSE port error" },
	{
		name: "wordy cwd",
		label: "wordy, cwd  what happened with retry_with_backoff last time cwd=…/acme-payments",
		query: "what happened with retry_with_backoff last time",
		filters: { cwds: ["/home/dev/src/acme-payments"] },
	},
	{
		name: "tool call",
		label: "tool call  handleWebhook timeout, as event_search from …/acme-payments",
		query: "handleWebhook timeout",
		caller: { root: "/home/dev/src/acme-payments" },
	},
	{ name: "inflected", label: "inflected  retried", query: "retried" },
	{ name: "inflected two", label: "inflected, two  migrations failing", query: "migrations failing" },
	{ name: "misspelled", label: "misspelled  retry with backofff", query: "retry with backofff" },
	{ name: "misspelled alone", label: "misspelled, alone  reconcileLedgerDrif", query: "reconcileLedgerDrif" },
	{ name: "no match", label: "no match  lunar pangolin zebrafish", query: "lunar pangolin zebrafish" },
];

/**
 * Recall needles in the style of the shared corpus manifest: what our tokens promise (CJK bigrams, camelCase and
 * snake_case parts, prefixes, two-letter words) and a trigram index cannot or can only by scanning. Each has a
 * ground truth the bench computes from the fragment text itself (bench/trigram-worker.ts), not from either index.
 *  - substring: the text contains `text` (CJK has no word boundaries);
 *  - word: an ASCII word or one of its camelCase parts equals `text`, case-insensitively;
 *  - prefix: an ASCII word or one of its camelCase parts starts with `text`, case-insensitively (our query runs
 *    with prefix: true, as the explorer's last term does).
 */
export interface Needle {
	label: string;
	text: string;
	truth: "substring" | "word" | "prefix";
}

/** The needles; every one occurs in the bench corpus (vocabulary above). */
export const NEEDLES: readonly Needle[] = [
	{ label: "CJK 2-char  泄漏 (of 内存泄漏)", text: "泄漏", truth: "substring" },
	{ label: "CJK 2-char  原因 (zh and ja)", text: "原因", truth: "substring" },
	{ label: "camelCase part  Ledger", text: "Ledger", truth: "word" },
	{ label: "snake/camel part  backoff", text: "backoff", truth: "word" },
	{ label: "2-letter word  db", text: "db", truth: "word" },
	{ label: "prefix  reconcileLed…", text: "reconcileLed", truth: "prefix" },
	{ label: "prefix of a part  Sparkl…", text: "Sparkl", truth: "prefix" },
];

/** What the search-as-you-type measurement types, one keystroke at a time. */
export const TYPED_QUERY = "handleWebhook ECONNREFUSED";

/** Source files per language, as an agent reads and edits them. */
export const FILES: Record<Lang, readonly string[]> = {
	ts: [
		"src/server.ts",
		"src/webhooks/handler.ts",
		"src/billing/invoice.ts",
		"src/lib/retry.ts",
		"src/db/migrate.ts",
		"test/webhooks.test.ts",
		"src/config.ts",
		"package.json",
	],
	tsx: [
		"src/App.tsx",
		"src/charts/Sparkline.tsx",
		"src/hooks/useChartData.ts",
		"src/api/client.ts",
		"src/pages/Settings.tsx",
		"vite.config.ts",
		"package.json",
	],
	py: ["pipeline/ingest.py", "pipeline/dedupe.py", "pipeline/sinks/warehouse.py", "tests/test_dedupe.py", "pyproject.toml"],
	go: ["cmd/proxy/main.go", "internal/proxy/handler.go", "internal/proxy/pool.go", "internal/proxy/pool_test.go", "go.mod"],
	rs: ["src/main.rs", "src/index/postings.rs", "src/query/tokenize.rs", "src/server.rs", "Cargo.toml", "tests/query.rs"],
	hcl: ["main.tf", "modules/network/main.tf", "modules/db/variables.tf", "envs/prod/main.tf"],
	md: ["inbox.md", "weekly/2025-w32.md", "ideas/search.md"],
	sh: ["run.sh", "load-test.sh", "out.csv"],
};

/** Function names the conversations revolve around; snake and camel case on purpose. */
export const FUNCS = [
	"handleWebhook",
	"retry_with_backoff",
	"retryWithBackoff",
	"parseInvoice",
	"settleBatch",
	"flushQueue",
	"useChartData",
	"renderSparkline",
	"dedupe_events",
	"load_events",
	"ServeHTTP",
	"acquireConn",
	"tokenize_query",
	"merge_postings",
	"applyMigration",
];

/** Error lines as tools and test runners print them. */
export const ERRORS = [
	"Error: connect ECONNREFUSED 127.0.0.1:5432",
	"Error: connect ECONNREFUSED ::1:6379",
	"TypeError: Cannot read properties of undefined (reading 'amount')",
	"Error: webhook handler timeout after 10000ms",
	"ENOENT: no such file or directory, open 'config/local.json'",
	"FAIL test/webhooks.test.ts > handleWebhook > retries on 503",
	"AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: 3 !== 2",
	"ValueError: could not convert string to float: 'N/A'",
	"KeyError: 'event_id'",
	"panic: runtime error: invalid memory address or nil pointer dereference",
	"dial tcp 10.0.3.7:8443: i/o timeout",
	"error[E0599]: no method named `merge_postings` found for struct `Index`",
	'Error: relation "invoices" does not exist (migration 0042 not applied)',
	"npm ERR! code E401 Unable to authenticate",
	"Error: Request failed with status code 429 (rate limited), retry_with_backoff gave up after 5 attempts",
];

/** Code lines per language; large payloads are assembled from these. */
export const CODE: Record<Lang, readonly string[]> = {
	ts: [
		"export async function handleWebhook(req: Request): Promise<Response> {",
		"  const event = await verifySignature(req, process.env.WEBHOOK_SECRET);",
		"  return retryWithBackoff(() => queue.publish(event), { attempts: 5, baseMs: 200 });",
		"}",
		'const invoice = parseInvoice(payload) ?? raise(new ValidationError("invoice"));',
		"for (const item of batch) await settleBatch(item.accountId, item.cents);",
		'if (err.code === "ECONNREFUSED") logger.warn({ err }, "database not reachable, retrying");',
		'export const migrations = ["0041_add_currency", "0042_invoices", "0043_webhook_log"];',
		'import { Pool } from "pg";',
		"  await applyMigration(pool, name);",
		'type Cents = number & { readonly __brand: "cents" };',
		"// keep idempotency keys for 24h so webhook retries are safe",
	],
	tsx: [
		"export function Sparkline({ points }: { points: number[] }) {",
		"  const data = useChartData(points, { smooth: true });",
		'  return <svg viewBox="0 0 120 24">{renderSparkline(data)}</svg>;',
		"}",
		'const [range, setRange] = useState<"7d" | "30d">("7d");',
		"useEffect(() => { void refetch(); }, [range]);",
		'<Button variant="ghost" onClick={() => setOpen(false)}>Cancel</Button>',
		"export default defineConfig({ plugins: [react()] });",
	],
	py: [
		"def dedupe_events(events: list[dict]) -> list[dict]:",
		"    seen: set[str] = set()",
		'    return [e for e in events if not (e["event_id"] in seen or seen.add(e["event_id"]))]',
		'df = load_events(path, columns=["event_id", "ts", "amount"])',
		"@retry_with_backoff(attempts=5, base=0.2)",
		"def write_batch(rows):",
		'    warehouse.copy_into("events_raw", rows)',
		'logger.info("loaded %d events", len(df))',
	],
	go: [
		"func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {",
		"\tconn, err := h.pool.acquireConn(r.Context())",
		"\tif err != nil { http.Error(w, err.Error(), http.StatusBadGateway); return }",
		"\tdefer conn.Release()",
		"}",
		'var ErrPoolExhausted = errors.New("pool exhausted")',
		"ctx, cancel := context.WithTimeout(ctx, 2*time.Second)",
	],
	rs: [
		"pub fn tokenize_query(input: &str) -> Vec<Term> {",
		"    input.split_whitespace().map(Term::parse).collect()",
		"}",
		"fn merge_postings(a: &[DocId], b: &[DocId]) -> Vec<DocId> {",
		"let mut index = Index::open(&path)?;",
		"#[derive(Debug, Clone, PartialEq)]",
		"impl Searcher for BM25 { fn score(&self, tf: f32, df: f32) -> f32 { todo!() } }",
	],
	hcl: [
		'resource "aws_db_instance" "ledger" {',
		'  engine = "postgres"',
		"  instance_class = var.db_class",
		"}",
		'module "network" {',
		'  source = "../modules/network"',
	],
	md: ["# Weekly notes", "- look at webhook retry storms", "- 内存泄漏 in the dashboard worker?", "## Ideas", "A search index over agent sessions would help."],
	sh: [
		"#!/usr/bin/env bash",
		"set -euo pipefail",
		"for i in $(seq 1 50); do curl -fsS localhost:8080/healthz || true; done",
		"ts,route,status,ms",
		"1754301123,/webhooks/stripe,503,10012",
	],
};

/** Shell commands per language. */
export const COMMANDS: Record<Lang, readonly string[]> = {
	ts: ["npm test", "npx vitest run test/webhooks.test.ts", "npm run build", "git status --short", "git diff --stat", "rg -n handleWebhook src"],
	tsx: ["npm run dev -- --port 5174", "npx playwright test", "npm run lint", "git log --oneline -5"],
	py: ["pytest -q tests/", "python -m pipeline.ingest --since 2025-08-01", "ruff check ."],
	go: ["go test ./...", "go vet ./...", "go build ./cmd/proxy"],
	rs: ["cargo test", "cargo clippy -- -D warnings", "cargo bench --bench query"],
	hcl: ["terraform plan -out plan.bin", "terraform validate"],
	md: ["ls -la", "wc -w inbox.md"],
	sh: ["bash load-test.sh", "tail -n 50 out.csv"],
};

/**
 * What people ask; several in Chinese or Japanese, some with emoji, of one code point (🚀) and of several (👍🏽, 🧑‍💻), as a
 * real history has: a width function meets each kind first somewhere, and that first time can cost a frame.
 */
export const PROMPTS: ReadonlyArray<(c: { file: string; func: string; err: string; cmd: string }) => string> = [
	(c) => `The test for ${c.func} in ${c.file} fails with:\n\n${c.err}\n\nCan you fix it?`,
	(c) => `Why does \`${c.cmd}\` print "${c.err}" on my machine but not in CI?`,
	(c) => `Please add retry_with_backoff around the call in ${c.func} (${c.file}); jitter and a cap of 5 attempts.`,
	(c) => `Refactor ${c.file}: ${c.func} is doing too much. Split parsing from I/O.`,
	(c) => `Review ${c.file} before I merge, anything risky in ${c.func}?`,
	(c) => `${c.file} 里的 ${c.func} 好像有内存泄漏，运行一小时后内存一直涨。帮我查一下原因。`,
	(c) => `${c.file} のテストが ${c.err.split(":")[0]} で失敗します。原因を調べてください。`,
	(c) => `Ship it 🚀 once \`${c.cmd}\` is green ✅ — and write the migration notes 👍🏽`,
	(c) => `Prod is down 🔥: ${c.err}. What changed in ${c.file}? 🧑‍💻 on call`,
	(c) => `Write a benchmark for ${c.func} next to ${c.file} and tell me the numbers.`,
];

/** Final replies of the assistant (one with ⚠️, an emoji sequence, as models write them). */
export const REPLIES: ReadonlyArray<(c: { file: string; func: string; err: string; cmd: string }) => string> = [
	(c) => `Fixed: ${c.func} in \`${c.file}\` swallowed the rejection, so the retry never ran. \`${c.cmd}\` passes now.`,
	(c) => `The error \`${c.err}\` came from a missing migration; I added it and re-ran \`${c.cmd}\`.`,
	(c) => `Done ✅ — ${c.func} now uses retry_with_backoff with jitter; see the new test next to ${c.file}. ⚠️ The cap is 5 attempts.`,
	(c) => `已修复：${c.file} 中的 ${c.func} 没有释放连接，导致内存泄漏。`,
	(c) => `I could not reproduce it locally. Things I checked:\n1. ${c.cmd}\n2. ${c.file}\n3. the timeout settings`,
];

/** Models and how their provider shapes ids and thinking signatures. */
export const MODELS = [
	{ api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", style: "anthropic", w: 5 },
	{ api: "anthropic-messages", provider: "anthropic", model: "claude-opus-4-1", style: "anthropic", w: 1 },
	{ api: "openai-responses", provider: "openai", model: "gpt-5-codex", style: "responses", w: 3 },
	{ api: "openai-completions", provider: "openrouter", model: "qwen/qwen3-coder", style: "completions", w: 1 },
	{ api: "google-generative-ai", provider: "google", model: "gemini-2.5-pro", style: "google", w: 1 },
] as const;
/** One entry of MODELS. */
export type ModelInfo = (typeof MODELS)[number];
