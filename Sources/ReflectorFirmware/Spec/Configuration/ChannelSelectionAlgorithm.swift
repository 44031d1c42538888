/// How non-mode-0 steps pick channels (Create Config `Channel_Selection_Type`, `Ch3c_Shape`,
/// `Ch3c_Jump`): algorithm #3b (a shuffle of the filtered map) or #3c (a hat or X sweep).
public enum ChannelSelectionAlgorithm: Sendable, Equatable {
    case algorithm3b
    /// Algorithm #3c with its shape and a jump of 2...8 channels.
    case algorithm3c(shape: Ch3cShape, jump: UInt8)

    /// The HCI `Channel_Selection_Type` value (0 = #3b, 1 = #3c).
    public var hciType: UInt8 {
        if case .algorithm3b = self { return 0 }
        return 1
    }
}

/// The sweep shape of channel selection algorithm #3c (`Ch3c_Shape`: 0 hat, 1 X).
public enum Ch3cShape: UInt8, Sendable, Equatable, CaseIterable {
    case hat = 0
    case x = 1
}
