import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

// n8n-core reads these when its InstanceSettings are first resolved: set them before it loads.
process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'n8n-engine-'));
process.env.N8N_ENCRYPTION_KEY = 'engine-test-encryption-key';
process.env.N8N_LOG_LEVEL = 'silent';
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
