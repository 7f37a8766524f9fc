// Loaded in <head> without defer (the only such script): the page knows JavaScript runs before its first
// paint, so the phone's collapsed header (site.css, `.js .site-menu`) shows without a jump.
document.documentElement.classList.add("js");
