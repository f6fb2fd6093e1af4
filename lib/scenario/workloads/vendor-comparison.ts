import { fetchedPage, searchResults } from "../fixtures/web";
import { sentence, slug, VENDORS } from "../fixtures/vocab";
import type { DraftPlant } from "../writer";
import type { Workload } from "./workload";
import { pricingBody, VENDOR_FOLLOW_UPS, VENDOR_SYSTEM, vendorFacts, vendorFiller, vendorSnapshot, type VendorFacts } from "./vendor-pages";

/**
 * "Collect the latest public information about vendors and turn it into a comparison table."
 * Early turns browse pricing and security pages, take the user's column order and intro, and
 * upload a draft (the first upload fails). Late turns write the final table, re-open a whitepaper,
 * answer a question buried in a bulky page and deliver the link that actually works.
 */
export const vendorComparison: Workload = (w) => {
  const { rng, ids } = w;
  const [a, b, c] = rng.sample(VENDORS, 3).map((name) => vendorFacts(w, name)) as [VendorFacts, VendorFacts, VendorFacts];
  const seats = rng.int(25, 240);
  const columns = rng.sample(
    [
      { label: "Plan", value: (f: VendorFacts) => f.plan },
      { label: `Price (${seats} seats, USD/mo)`, value: (f: VendorFacts) => f.price },
      { label: "SSO", value: (f: VendorFacts) => f.sso },
      { label: "Data residency", value: (f: VendorFacts) => f.residency },
      { label: "Support SLA", value: (f: VendorFacts) => f.sla },
      { label: "Source", value: (f: VendorFacts) => f.pricingUrl },
    ],
    5,
  );
  if (!columns.some((col) => col.label.startsWith("Price"))) columns[0] = { label: `Price (${seats} seats, USD/mo)`, value: (f) => f.price };
  const header = ids.claim(`| Vendor | ${columns.map((col) => col.label).join(" | ")} |`);
  const team = rng.pick(["platform", "finance", "growth", "data", "security"]);
  const intro = ids.claim(
    `This note compares ${a.name}, ${b.name} and ${c.name} for the ${team} team's renewal in week ${rng.int(10, 52)}; ` +
      `prices are list prices for ${seats} seats as published on the vendors' own pages, and each figure links to its source.`,
  );
  const whitepaper = ids.fresh(() => `https://trust.${slug(b.name)}.example/whitepapers/security-overview-${rng.hex(6)}.pdf`);
  const retention = ids.fresh(() => `retention window of ${rng.int(181, 999)} days`);
  const staleLink = ids.fresh(() => `https://docs.example.com/d/${rng.hex(10)}`);
  const link = ids.fresh(() => `https://docs.example.com/d/${rng.hex(10)}`);
  const plants = {} as Record<"price" | "paper" | "header" | "intro" | "retention" | "link", DraftPlant>;
  const row = (f: VendorFacts): string => `| ${f.name} | ${columns.map((col) => col.value(f)).join(" | ")} |`;

  const early = [
    () => {
      w.user(
        `Collect the latest public information about ${a.name}, ${b.name} and ${c.name} and turn it into a comparison table.\n` +
          `Focus on a ${seats}-seat team: price, SSO, data residency and support SLA.`,
      );
      const query = `${a.name} ${b.name} ${c.name} pricing SSO data residency`;
      const hits = [
        { title: `${a.name} pricing`, url: a.pricingUrl, snippet: sentence(rng) },
        { title: `${b.name} security overview (PDF)`, url: whitepaper, snippet: "Hosting regions, sub-processors, encryption and data residency commitments." },
        { title: `${c.name} pricing`, url: c.pricingUrl, snippet: sentence(rng) },
        { title: `${b.name} pricing`, url: b.pricingUrl, snippet: sentence(rng) },
      ];
      const search = w.call("web_search", { query }, searchResults(query, hits));
      plants.paper = w.plant(
        "locator_handle",
        whitepaper,
        search.result,
        `${b.name}'s security whitepaper URL, found by search; re-opened later to check data residency.`,
      );
      w.call("browser_navigate", { url: a.pricingUrl }, `Navigated to ${a.pricingUrl} (200 OK)`);
      const snap = w.call("browser_snapshot", {}, vendorSnapshot(w, a.pricingUrl, `${a.name} pricing`, pricingBody(a, seats), rng.int(120, 220)));
      plants.price = w.plant(
        "evidence_detail",
        a.price,
        snap.result,
        `${a.name}'s ${a.plan} price read from a noisy pricing-page snapshot; the final table quotes it.`,
      );
      w.call(
        "web_fetch",
        { url: b.pricingUrl },
        fetchedPage(rng, { url: b.pricingUrl, title: `${b.name} pricing`, body: pricingBody(b, seats), noiseLines: rng.int(60, 120) }),
      );
      w.say(`First pass done: ${a.name} and ${b.name} pricing captured. I'd use Vendor, Plan, Price, Notes as columns unless you prefer otherwise.`);
    },
    () => {
      const ask = w.user(
        `Use exactly these columns, in this order:\n${header}\nNo Notes column. And open the document with my intro paragraph, word for word:\n${intro}`,
      );
      plants.header = w.plant("behavioral_contract", header, ask, "User-imposed column order; the final table must keep it exactly.");
      plants.intro = w.plant("verbatim_source", intro, ask, "User's intro paragraph, later requested word for word at the top of the final document.");
      const securityUrl = `https://www.${slug(c.name)}.example/security`;
      w.call("browser_navigate", { url: securityUrl }, `Navigated to ${securityUrl} (200 OK)`);
      const body = [`Audit and access logs are kept in a ${retention}, then purged.`, sentence(rng)];
      const snap = w.call("browser_snapshot", {}, vendorSnapshot(w, securityUrl, `${c.name} security`, body, rng.int(420, 620), 0.55));
      const why = "One line in a bulky security-page snapshot a fold would move to a sidecar; a late question asks for it by topic.";
      plants.retention = w.plant("recovery_routing", retention, snap.result, why);
      w.call(
        "web_fetch",
        { url: c.pricingUrl },
        fetchedPage(rng, { url: c.pricingUrl, title: `${c.name} pricing`, body: pricingBody(c, seats), noiseLines: rng.int(60, 120) }),
      );
      w.say(`Understood: your column order, no Notes, and your intro verbatim. ${c.name}'s security and pricing pages are captured.`);
    },
    () => {
      w.user("Upload what you have so far to the team docs so I can share it.");
      const draft = `# Vendor comparison (draft)\n\n${header}\n${row(a).replace(a.price, "(pending)")}\n| ${b.name} | … |\n| ${c.name} | … |\n`;
      w.also(plants.header, w.call("write_file", { path: "out/comparison-draft.md", content: draft }, "Wrote 1 file: out/comparison-draft.md").call);
      const cmd = "docs-cli upload out/comparison-draft.md --folder vendor-eval";
      const failed = `Uploading out/comparison-draft.md ... 38%\nerror: upload interrupted (HTTP 502 from docs gateway)\npartial document: ${staleLink} (status: incomplete)`;
      w.call("exec", { cmd }, failed, { isError: true });
      const ok = w.call("exec", { cmd: `${cmd} --retry` }, `Uploading out/comparison-draft.md ... 100%\nlink: ${link}\nstatus: ready\nrevision: 1`);
      plants.link = w.plant("live_state", link, ok.result, "Link of the upload that succeeded; the earlier partial upload's link is stale.", staleLink);
      w.also(plants.link, w.say(`The first upload failed at 38%; the retry worked. Draft: ${link}`));
    },
  ];

  const late = [
    () => {
      w.user("Now write the final table to out/comparison.md, intro first, exactly as I gave it.");
      const content = `${intro}\n\n${header}\n|${" --- |".repeat(columns.length + 1)}\n${row(a)}\n${row(b)}\n${row(c)}\n`;
      const write = w.call("write_file", { path: "out/comparison.md", content }, "Wrote 1 file: out/comparison.md").call;
      w.use(plants.intro, write);
      w.use(plants.header, write);
      w.use(plants.price, write);
      w.say("Final table written with your intro and column order.");
    },
    () => {
      w.user(`Double-check ${b.name}'s data-residency claim against the security whitepaper you found earlier.`);
      const page = fetchedPage(rng, {
        url: whitepaper,
        title: `${b.name} security overview`,
        body: [`Customer data is stored in: ${b.residency}.`],
        noiseLines: 90,
      });
      w.use(plants.paper, w.call("web_fetch", { url: whitepaper }, page).call);
      w.say(`The whitepaper confirms: ${b.residency}. The table is consistent.`);
    },
    () => {
      w.user(`Which of them keeps audit logs the longest? I remember ${c.name}'s security page gave an exact number.`);
      w.use(plants.retention, w.say(`${c.name}: its security page says audit and access logs are kept in a ${retention}, longer than the others publish.`));
    },
    () => {
      w.user("Great, update the shared doc with the final version and send me the link.");
      w.use(plants.link, w.call("exec", { cmd: `docs-cli update ${link} out/comparison.md` }, `Updated ${link}\nrevision: 2\nstatus: ready`).call);
      w.call("send_message", { to: "user", text: `Final comparison: ${link}` }, "sent");
      w.say("Done, the link is in your chat.");
    },
  ];

  const followUp = (): void => {
    w.user(rng.pick(VENDOR_FOLLOW_UPS));
    w.say("Checked; nothing there changes the comparison table.");
  };
  return { system: VENDOR_SYSTEM, early, late, followUp, filler: () => vendorFiller(w) };
};
