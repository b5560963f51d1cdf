// Hostile input on every loader's query and route parameters (tests/fuzz/hostile-input.ts says what holds).
import { fuzzLoaders } from "./hostile-input";

fuzzLoaders();
