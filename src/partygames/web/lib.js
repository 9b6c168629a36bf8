// The one place the client imports its (vendored) view library from. Game renderers get `html`
// through their ctx instead, so they do not depend on a path.
import { h, render, Fragment } from "./vendor/preact.js";
import { useState, useEffect, useRef, useMemo, useCallback, useReducer } from "./vendor/hooks.js";
import htm from "./vendor/htm.js";

export const html = htm.bind(h);
export { h, render, Fragment, useState, useEffect, useRef, useMemo, useCallback, useReducer };
