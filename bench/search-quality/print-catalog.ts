// Prints the seed catalog (name | description | packages), one entry a line, for reading while
// writing judgments: `node --import tsx bench/search-quality/print-catalog.ts > /tmp/catalog.txt`.
import { loadSeed } from './seed.ts';

for (const d of loadSeed()) console.log(`${d.id.replace(/^io\.github\./, '')} | ${d.description} | ${d.tags.join(', ')}`);
