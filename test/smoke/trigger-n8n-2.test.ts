import { N8N_V2 } from '../../scripts/realN8n';
import { triggerSmoke } from './triggerSuite';

triggerSmoke(N8N_V2);
