"""The lifecycle walk (the old hand-written plan, now a source of features for the learned selection): entry surfaces, the paths from them, and the units those paths pass through.

Overview selection follows the flow a request (or a call into a library) takes:

1. **Architecture scope.** Tests, examples, samples, demos, docs, tutorials, benchmarks and
   build scripts are never the architecture's entry or core (path rules that hold for any
   repository, see `non_architecture`).
2. **Selection graph.** Proven call/construct edges plus *likely* edges: an unresolved call
   whose name matches at most `LIKELY_MAX` callables in scope (same class first). Likely
   edges only choose *what to read*; facts and evidence use the proven graph only.
3. **Entry surfaces.** Host interfaces (WSGI/ASGI callables, `ServeHTTP`), declared entries
   (console scripts, bins, main functions and guards), and public roots: public callables
   nothing in scope calls. Ranked by tier, then by how much of the code base they reach.
4. **Orchestrating core.** Units reachable from the chosen entries that drive further
   work, ranked by how much lies downstream of them (the trunk of the flow), then by
   distance from the entry. This deliberately uses graph structure: the earlier rule
   "never from degree" kept high-fan-in helpers out, but also kept the trunk out.
   Downstream reach is not fan-in, so a helper called from everywhere does not rise.
5. **Assembly, sinks, boundaries.** Constructors and factories of the classes the flow
   runs through (found by what they construct), output/persistence calls on the flow, and
   units called from error handlers (`except`/`catch`) on the flow.

Everything is computed in sorted order: same index ⇒ same plan.
"""
