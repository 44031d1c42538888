import MCUboot

/// MCUboot image checking before an upload (`MCUbootImage`: header, TLV areas, SHA-256).
///
/// Checks: an accepted image's parts lie inside the file, its hash is the SHA-256 of what it
/// covers; SHA-256 fed in two pieces (split where the first octet says) equals one shot.
enum MCUbootImageTarget {
    static let target = FuzzTarget("mcuboot-image", "MCUbootImage: image files checked before flashing", seeds: { SeedVectors.images }) { bytes in
        if let first = bytes.first {
            let cut = min(bytes.count, Int(first) * 3)
            var s = SHA256()
            s.update(bytes[0..<cut])
            s.update(bytes[cut...])
            require(s.finalize() == SHA256.hash(bytes), "SHA-256 in two pieces differs")
        }
        guard let image = try? MCUbootImage(bytes: bytes) else { return }
        let payloadEnd = Int(image.header.headerSize) + Int(image.header.imageSize)
        require(Int(image.header.headerSize) >= MCUbootImageHeader.size && payloadEnd <= image.end && image.end <= bytes.count,
                "accepted image's parts lie outside the file")
        let hashedEnd = payloadEnd + Int(image.header.protectedTLVSize)
        require(image.hash == SHA256.hash(bytes[0..<hashedEnd]), "accepted image's hash is not the SHA-256 of what it covers")
    }
}
