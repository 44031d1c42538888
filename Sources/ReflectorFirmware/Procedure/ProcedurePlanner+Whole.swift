extension ProcedurePlanner {
    /// Plans the next procedure whole: begins it and collects its steps. For tools and tests;
    /// a controller pulls `nextStep()` as its radio needs steps.
    #if !hasFeature(Embedded)
    @_specialize(exported: true, where Cipher == AES128)
    #endif
    public mutating func planNextProcedure() -> [PlannedStep] {
        beginProcedure()
        var steps: [PlannedStep] = []
        steps.reserveCapacity(ProcedureLimits.maxStepsPerProcedure)
        while let step = nextStep() { steps.append(step) }
        return steps
    }
}
