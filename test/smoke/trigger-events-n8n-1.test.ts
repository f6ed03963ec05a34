import { N8N_V1 } from '../../scripts/realN8n';
import { triggerEventsSmoke } from './triggerEventsSuite';

triggerEventsSmoke(N8N_V1);
