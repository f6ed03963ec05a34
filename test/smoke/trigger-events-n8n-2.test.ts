import { N8N_V2 } from '../../scripts/realN8n';
import { triggerEventsSmoke } from './triggerEventsSuite';

triggerEventsSmoke(N8N_V2);
