"use strict";
module.exports = {  };
