"use strict";
module.exports = { ...require('./validators-body.js'), ...require('./validators-param.js') };
