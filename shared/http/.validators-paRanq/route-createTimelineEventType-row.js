"use strict";
module.exports = {"name":"createTimelineEventType","method":"POST","path":"/integrations/v1/{appId}/timeline/event-types","entry":"functions/timeline/create-event-type.ts","scopes":[],"auth":"developerKey","body":"json","table":"readwrite","partitions":["apps","counters","developerApiKeys"]};
