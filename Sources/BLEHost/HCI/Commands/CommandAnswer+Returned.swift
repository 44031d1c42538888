import ReflectorFirmware

extension CommandAnswer {
    /// Whether this answers `C` in the form the command declares (`C.answer`): Command Status
    /// for a command answered so, Command Complete otherwise.
    public func answers<C: HCICommand>(_ command: C.Type) -> Bool {
        opcode == C.opcode && isStatusOnly == (C.answer == .status)
    }

    /// The return parameters of Command Complete for `C`, read by the type it declares
    /// (`C.ReturnParameters`); nil for an answer to another command or in the other form.
    public func returned<C: HCICommand>(by command: C.Type) throws(DecodeError) -> C.ReturnParameters? where C.ReturnParameters: HCIParameters {
        guard answers(C.self), C.answer == .complete else { return nil }
        return try C.ReturnParameters.decode(returnParameters)
    }
}
