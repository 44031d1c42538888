print("reflector-emu: under construction")
