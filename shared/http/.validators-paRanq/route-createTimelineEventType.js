"use strict";
module.exports = { ...require('./route-createTimelineEventType-body.js'), ...require('./route-createTimelineEventType-param.js') };
