"use strict";
module.exports = {"name":"listTimelineEventTypes","method":"GET","path":"/integrations/v1/{appId}/timeline/event-types","entry":"functions/timeline/list-event-types.ts","scopes":["timeline"],"auth":"developerKeyOrToken","body":"none","table":"read","partitions":["apps","developerApiKeys"]};
