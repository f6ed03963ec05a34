import { triggerEventsSmoke } from './triggerEventsSuite';

triggerEventsSmoke();
