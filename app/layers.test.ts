/**
 * The house's layers, read from the code: every import of every file under app/ and server/ (static `import`,
 * `export … from`, `import()` and `typeof import()` types) is resolved to a path, and two kinds are refused:
 * - anything under tests/: the running shop must not depend on the test tree (the demo's test courier once did);
 * - an import running back up the layers routes → components → modules → db → utils: a file may import its own
 *   layer or one below it, never one above.
 * Test files are left out (they may import test factories and anything they test). Files outside the five layers
 * (root.tsx, entry.server.tsx, context.ts, server/) are checked for tests/ only. A failure names each file and import.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, root, sourceFiles, target } from "../tests/setup/source-imports";

/** Lower number = lower floor: a file may import its own floor or a lower one. */
const LAYERS = [
  { name: "routes", dir: "app/routes/", floor: 5 },
  { name: "components", dir: "app/components/", floor: 4 },
  { name: "modules", dir: "app/modules/", floor: 3 },
  { name: "db", dir: "app/db/", floor: 2 },
  { name: "utils", dir: "app/utils/", floor: 1 },
] as const;

const layerOf = (path: string) => LAYERS.find((l) => path.startsWith(l.dir) || `${path}/` === l.dir);

/** The offences of one file's imports, each as "file: import 'specifier' (why)". */
function offences(file: string, specifiers: string[]): string[] {
  const from = layerOf(file);
  const found: string[] = [];
  for (const specifier of specifiers) {
    const to = target(file, specifier);
    if (to === null) continue;
    if (to === "tests" || to.startsWith("tests/")) {
      found.push(`${file}: import "${specifier}" reaches the test tree (${to})`);
      continue;
    }
    const into = layerOf(to);
    if (from && into && into.floor > from.floor) found.push(`${file}: import "${specifier}" runs back up from ${from.name} to ${into.name}`);
  }
  return found;
}

describe("the house's layers", () => {
  it("no file of app/ or server/ imports from tests/, and no import runs back up routes → components → modules → db → utils", () => {
    const files = [...sourceFiles("app"), ...sourceFiles("server")];
    // the scan reads the whole house, not a corner of it
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) => offences(file, importsOf(file, readFileSync(join(root, file), "utf8"))));
    if (found.length) console.error(`Imports against the layers:\n${found.map((f) => `  ${f}`).join("\n")}`);
    expect(found).toEqual([]);
  }, 60_000); // ~1 s alone; it parses ~700 files, and under the integration tests on 2 cores it once took over 5 s

  it("finds each kind of import, and refuses the test tree and an import back up while a lower one passes", () => {
    const text = [
      'import { a } from "../../../tests/fakes/couriers";',
      'import type { B } from "~/routes/checkout.delivery";',
      'export { c } from "~/components/ui/field";',
      'const d = await import("~/modules/orders/orders.server");',
      'type E = typeof import("~/utils/money");',
      'import "./side-effect";',
      "const f = await import(`~/modules/${name}.server`);",
      'const g = require("~/db/db.server");',
    ].join("\n");
    const specifiers = importsOf("app/db/example.ts", text);
    expect(specifiers).toEqual(["../../../tests/fakes/couriers", "~/routes/checkout.delivery", "~/components/ui/field", "~/modules/orders/orders.server", "~/utils/money", "./side-effect", "~/modules/", "~/db/db.server"]);
    expect(offences("app/modules/couriers/example.server.ts", specifiers)).toEqual([
      'app/modules/couriers/example.server.ts: import "../../../tests/fakes/couriers" reaches the test tree (tests/fakes/couriers)',
      'app/modules/couriers/example.server.ts: import "~/routes/checkout.delivery" runs back up from modules to routes',
      'app/modules/couriers/example.server.ts: import "~/components/ui/field" runs back up from modules to components',
    ]);
    expect(offences("app/db/example.ts", ["~/modules/x"])).toEqual(['app/db/example.ts: import "~/modules/x" runs back up from db to modules']);
    expect(offences("app/utils/money.ts", ["../db/db.server"])).toEqual(['app/utils/money.ts: import "../db/db.server" runs back up from utils to db']);
    expect(offences("server/app.ts", ["~/routes/home", "../tests/setup/x"])).toEqual(['server/app.ts: import "../tests/setup/x" reaches the test tree (tests/setup/x)']);
    expect(offences("app/routes/home.tsx", ["~/components/x", "~/modules/y", "~/db/z", "~/utils/w", "react"])).toEqual([]);
  });
});
