const { src, dest } = require('gulp');

/** Copies the icons next to the compiled code, keeping their folders, as n8n loads them from dist/. */
function buildIcons() {
	return src(['icons/**/*.{png,svg}', 'nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], {
		base: '.',
		allowEmpty: true,
	}).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
