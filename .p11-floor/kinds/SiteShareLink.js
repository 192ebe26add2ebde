module.exports = require("../noop")();
