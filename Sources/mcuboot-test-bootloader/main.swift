print("mcuboot-test-bootloader: under construction")
