import { N8N_V1 } from '../../scripts/realN8n';
import { webhookTriggerSmoke } from './webhookTriggerSuite';

webhookTriggerSmoke(N8N_V1);
