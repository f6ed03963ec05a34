import { N8N_V1 } from '../../scripts/realN8n';
import { smokeSuite } from './smokeSuite';

smokeSuite(N8N_V1);
