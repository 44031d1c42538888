/// Every codec of this module reads and writes with WireFormat's `ByteReader`/`ByteWriter` and
/// throws its `DecodeError`, so those types are part of this module's API: a client that
/// imports ReflectorFirmware sees them too.
@_exported import WireFormat
