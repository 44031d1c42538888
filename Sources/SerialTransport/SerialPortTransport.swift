/// How a serial port is attached, as libserialport reports it (`sp_get_port_transport`).
public enum SerialPortTransport: String, Sendable, Equatable {
    /// A UART on the machine itself (`SP_TRANSPORT_NATIVE`).
    case native
    /// A USB serial adapter or a board's USB CDC ACM port (`SP_TRANSPORT_USB`); has VID/PID.
    case usb
    /// A Bluetooth RFCOMM port (`SP_TRANSPORT_BLUETOOTH`).
    case bluetooth
}
