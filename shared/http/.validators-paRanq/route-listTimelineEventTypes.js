"use strict";
module.exports = { ...require('./route-listTimelineEventTypes-param.js') };
