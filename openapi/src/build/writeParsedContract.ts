import { readFileSync, writeFileSync } from 'node:fs';
import { contractPath, parsedContract, parsedContractPath } from '../contractDocument.js';

// The build's last step (package.json): quotes.yaml parsed once, for every process's start.
writeFileSync(parsedContractPath, JSON.stringify(parsedContract(readFileSync(contractPath, 'utf8'))));
