"use strict";
module.exports = {"name":"notFound","method":"ANY","path":"$default","entry":"functions/not-found.ts","scopes":"public","body":"none","table":"none","partitions":[]};
