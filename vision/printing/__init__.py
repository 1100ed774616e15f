"""Print-and-play output: components packed onto A4 and US Letter sheets, as PNG and PDF, and a
manifest that says where every component and marker was printed."""
