"""The one router of the ask path (docs/design.md "The router"): an ordered list of rules, each
`decide(context) -> Decision | None`, the first that decides wins (`router.standard`). A rule that
needs a search of its own declares it as a probe, run by the retrieve step
(`router.Router.probe`), so the route step searches nothing.

    decision   Route, Decision: what a rule decides (answer, clarify, no evidence)
    context    RouteContext: what every rule reads (the reading, the search, the probes)
    evidence   the version rules over the search: which missing fact decides, the dates
    rules      the rules, one class each
    router     Router: the order, the probes, the first decision
"""
