// Hostile input on every action (tests/fuzz/hostile-input.ts says what holds).
import { fuzzActions } from "./hostile-input";

fuzzActions();
