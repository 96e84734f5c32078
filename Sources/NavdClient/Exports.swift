// The contract's vocabulary comes with the client: the wire value types (`Entry`, `Node`,
// `ParamValue`, `Presentation`, `ModalStyle`, `HistoryEntry`, …) and the contract's names.
@_exported import Navigation
@_exported import NavigatorProtocol
