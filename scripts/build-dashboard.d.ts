/** Types of scripts/build-dashboard.js for the tests that call it. */
export const BUNDLE_PATH: string;
export function dashboardBundleStale(): boolean;
export function buildDashboard(treeRoot?: string, sourceRoot?: string): Promise<number>;
