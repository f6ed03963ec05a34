import { durablePollSmoke } from './durablePollSuite';

durablePollSmoke();
