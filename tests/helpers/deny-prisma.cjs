// `node --require ./tests/helpers/deny-prisma.cjs --import tsx …`: a child process that must never load
// Prisma's generated clients. Any module that resolves under generated/prisma-* fails as it does on a
// fresh clone after a plain `npm install`. tsx runs the CLI's TypeScript as CommonJS, so the require
// resolver is the one to wrap.
const Module = require("node:module");

const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function denyPrisma(request, ...rest) {
  const resolved = resolveFilename.call(this, request, ...rest);
  if (/[\\/]generated[\\/]prisma-/.test(resolved)) {
    const error = new Error(`Cannot find module '${resolved}' (generated/prisma denied by the test)`);
    error.code = "MODULE_NOT_FOUND";
    throw error;
  }
  return resolved;
};
