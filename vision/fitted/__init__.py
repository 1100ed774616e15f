"""Models whose parameters are fitted from rendered boards, and the files that ship them."""
